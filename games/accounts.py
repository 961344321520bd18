"""How django-allauth treats the usernames people choose (ACCOUNT_ADAPTER)."""

from allauth.account.adapter import DefaultAccountAdapter

from games.validators import clean_name


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """A username is a name: kept as names are (NFKC: "ａｌｉｃｅ" is "alice", and taken
        if alice is), and refused, naming the character as typed, when it holds anything
        invisible. Then allauth's checks (ACCOUNT_USERNAME_VALIDATORS, taken or not)."""
        return super().clean_username(clean_name(username), shallow=shallow)
