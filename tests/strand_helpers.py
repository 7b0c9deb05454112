"""Compact records for scripted STRAND tests."""

from gamelab.rulebook import playtest


def rec(players, rounds, variant="standard", **params):
    """players: "A:veteran B C D"; rounds: [(cargo "1 2 3 4", ropes "B A D C", powers dict)]"""
    plist = []
    for item in players.split():
        name, _, role = item.partition(":")
        plist.append({"name": name, "role": role or None})
    names = [p["name"] for p in plist]
    out = []
    for rd in rounds:
        cargo, ropes, *rest = rd
        r = {
            "cargo": dict(zip(names, map(int, cargo.split()))),
            "ropes": {n: ("stay" if t == "-" else t) for n, t in zip(names, ropes.split())},
        }
        if rest and rest[0]:
            r["powers"] = rest[0]
        if len(rest) > 1:
            r["rain"] = rest[1]
        out.append(r)
    return {"game": "strand", "variant": variant, "params": params, "players": plist, "rounds": out}


def run(*args, **kw):
    return playtest.replay(rec(*args, **kw))
