"""Reading the CSV files people bring: the separator is found from the lines themselves."""

from core import csvfiles


def test_the_separator_of_a_line_of_names_alone_is_not_guessed_from_a_comma_in_one():
    assert csvfiles.separator_of("Анна\nБорис\n") == ","
    assert csvfiles.separator_of("Имя;Клуб\nАнна;Туз, Москва\n") == ";"
    assert csvfiles.separator_of('name,club\nAnna,"Ace; Moscow"\n') == ","
