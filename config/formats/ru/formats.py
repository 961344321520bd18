"""Russian dates as they are written in running text: the month in the genitive, lower case
("27 ноября"), where Django's would write the nominative with a capital ("27 Ноябрь")."""

MONTH_DAY_FORMAT = "j E"
