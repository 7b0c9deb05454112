"""The rulebook against the rules: identities, the claims audit and playtest
replay."""
