"""Reading the user's JSON/YAML files safely, with one-line errors that name the file.

Every file from outside goes through :func:`load_mapping`: at most
:data:`MAX_BYTES`; at most :data:`MAX_ITEMS` values (so any file under the
size limit is read or refused in seconds: YAML is counted on libyaml's
event stream before anything is built, and then read by libyaml); YAML
without aliases (an alias bomb cannot grow); nesting at most
:data:`MAX_DEPTH` deep; integers of at most
:data:`MAX_INT_DIGITS` digits; no NaN or infinity anywhere; every mapping
key a string.  JSON we print goes through :func:`dumps`, which is always
valid JSON (NaN becomes null).
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamelab.core.errors import GamelabError, short
from gamelab.core.limits import MAX_ITEMS

if TYPE_CHECKING:
    from gamelab.core.contract import Game

MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 40
MAX_INT_DIGITS = 18
VIRTUAL = (Path("/proc"), Path("/sys"), Path("/dev"))  # the kernel's files: never read as input, nor written


class _Refused(Exception):
    """A value the loaders refuse, with the place it was found."""


def _check_int(text: str) -> int:
    digits = text.lstrip("+-").replace("_", "")
    if len(digits) > MAX_INT_DIGITS:
        raise _Refused(f"an integer with {len(digits)} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _check_digits(text: str) -> None:
    """A YAML integer's text (``0x10``, ``0o17``, ``1_000`` as well) no longer
    than :data:`MAX_INT_DIGITS` digits, checked before it is converted."""
    digits = text.lstrip("+-").replace("_", "")
    if len(digits) > MAX_INT_DIGITS + 2:  # room for a 0x / 0o / 0b prefix
        raise _Refused(f"an integer with {len(digits)} digits (at most {MAX_INT_DIGITS})")


def _no_constant(name: str):
    raise _Refused(f"{name} is not a number gamelab accepts")


def _no_duplicates(pairs: list) -> dict:
    """A JSON object whose keys are all different (``json`` would keep the
    last of two equal keys silently)."""
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"the key {short(key)} appears twice in one mapping")
        out[key] = value
    return out


def _parse_json(text: str) -> Any:
    return json.loads(text, parse_int=_check_int, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)


def _base_loader():
    """libyaml's safe loader (fast on large files), else PyYAML's own."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _scan_yaml(text: str) -> None:
    """Count values and nesting on the event stream (libyaml: about 0.2 s for
    :data:`MAX_ITEMS` values), before any node is built: aliases, more than
    :data:`MAX_ITEMS` values or nesting deeper than :data:`MAX_DEPTH` are
    refused here."""
    import yaml

    def line(event) -> int:
        return event.start_mark.line + 1 if event.start_mark is not None else 0

    items = depth = 0
    for event in yaml.parse(text, Loader=_base_loader()):
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(f"line {line(event)}: YAML aliases (*name) are not accepted")
        if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            items += 1
            if items > MAX_ITEMS:
                raise _Refused(f"line {line(event)}: more than {MAX_ITEMS:,} values in one file")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _Refused(f"line {line(event)}: nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _yaml_loader():
    class SafeNoAliases(_base_loader()):  # type: ignore[misc]
        """Aliases, size and depth are refused by :func:`_scan_yaml` first."""

        def construct_mapping(self, node, deep=False):
            mapping = super().construct_mapping(node, deep=deep)
            if len(mapping) != len(node.value):  # two equal keys: PyYAML keeps the last silently
                seen = set()
                for key_node, _ in node.value:
                    key = self.construct_object(key_node, deep=deep)
                    if key in seen:
                        line = key_node.start_mark.line + 1
                        raise _Refused(f"line {line}: the key {short(key)} appears twice in one mapping")
                    seen.add(key)
            return mapping

        def construct_yaml_int(self, node):
            _check_digits(str(node.value))
            return super().construct_yaml_int(node)

        def construct_yaml_float(self, node):
            value = super().construct_yaml_float(node)
            if not math.isfinite(value):
                raise _Refused(f"line {node.start_mark.line + 1}: {node.value} is not a number gamelab accepts")
            return value

    SafeNoAliases.add_constructor("tag:yaml.org,2002:int", SafeNoAliases.construct_yaml_int)
    SafeNoAliases.add_constructor("tag:yaml.org,2002:float", SafeNoAliases.construct_yaml_float)
    return SafeNoAliases


def _parse_yaml(text: str) -> Any:
    import yaml

    _scan_yaml(text)
    return yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a SafeLoader subclass


def _yaml_error(exc) -> str:
    """A PyYAML error in one line: where, and what."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc).splitlines()[0]
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"{where}{problem}"


def check_structure(data: Any, where: str = "") -> None:
    """Depth, number of values, finite numbers and string keys, checked
    without recursion."""
    stack = [(data, where or "top level", 0)]
    items = 0
    while stack:
        value, place, depth = stack.pop()
        items += 1
        if items > MAX_ITEMS:
            raise _Refused(f"more than {MAX_ITEMS:,} values in one file")
        if depth > MAX_DEPTH:
            raise _Refused(f"{place}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, float) and not math.isfinite(value):
            raise _Refused(f"{place}: {value} is not a number gamelab accepts")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_INT_DIGITS:
            raise _Refused(f"{place}: an integer with more than {MAX_INT_DIGITS} digits")
        if isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str) and (isinstance(k, bool) or not isinstance(k, int)):
                    raise _Refused(f"{place}: key {short(k)} is neither a name nor a number")
                stack.append((v, f"{k}" if place == "top level" else f"{place}.{k}", depth + 1))
        elif isinstance(value, list):
            stack.extend((v, f"{place}[{i}]", depth + 1) for i, v in enumerate(value))


def parse_text(text: str, *, yaml_syntax: bool) -> Any:
    """Parse JSON or YAML text with the limits above; raises ``ValueError``
    with a one-line message."""
    try:
        data = _parse_yaml(text) if yaml_syntax else _parse_json(text)
        check_structure(data)
    except _Refused as exc:
        raise ValueError(str(exc)) from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except Exception as exc:  # PyYAML's errors (and ValueError from int()) have no common base here
        import yaml

        if isinstance(exc, yaml.YAMLError):
            raise ValueError(f"not valid YAML ({_yaml_error(exc)})") from None
        raise
    return data


#: what a path names when it is not a regular file, by ``stat``
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def not_regular(mode: int) -> str | None:
    """What a ``st_mode`` names when it is not a regular file (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def file_problem(path: str | Path, limit: int = MAX_BYTES) -> str | None:
    """Why ``path`` cannot be read as an input file, by ``stat`` alone (nothing is
    opened: a FIFO with no writer, a device, a folder are named, never read), or None."""
    if str(path) == "":
        return "an empty path names no file"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except NotADirectoryError:
        return "no such file (a part of the path is a file, not a folder)"
    except OSError as exc:
        return f"cannot read the file ({exc.strerror or exc})"
    kind = not_regular(st.st_mode)
    if kind is not None:
        return f"{kind}, not a regular file"
    under = next((v for v in VIRTUAL if Path(os.path.realpath(path)).is_relative_to(v)), None)
    if under is not None:  # /proc/kmsg is "regular" by stat, size 0, and a read of it waits for ever
        return f"under {under}, the kernel's own files, not an input file"
    if st.st_size > limit:
        return f"the file has {st.st_size:,} bytes; at most {limit:,} are read"
    return None


def read_bounded(path: str | Path, *, limit: int = MAX_BYTES, error: type = GamelabError, name: str = "") -> bytes:
    """The one reader of a file from outside: refused by ``stat`` unless a regular
    file (:func:`file_problem`), opened without blocking (a file swapped for a FIFO
    after the check still does not hang: checked again on the open descriptor), and
    at most ``limit`` bytes read (a file that grew past it is refused, not read whole).
    ``name``: how the error names it (default the path)."""
    where = name or str(path)
    problem = file_problem(path, limit)
    if problem is not None:
        raise error(f"{where}: {problem}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise error(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as f:
        kind = not_regular(os.fstat(fd).st_mode)
        if kind is not None:
            raise error(f"{where}: {kind}, not a regular file")
        try:
            raw = f.read(limit + 1)
        except OSError as exc:
            raise error(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise error(f"{where}: the file has more than {limit:,} bytes; at most {limit:,} are read")
    return raw


def decode_text(raw: bytes) -> str:
    """UTF-8 text, a byte-order mark at the start dropped (editors on Windows write one);
    raises ``UnicodeDecodeError``."""
    return raw.decode("utf-8-sig")


def load_data(path: str | Path, *, error: type = GamelabError) -> Any:
    """A JSON or YAML file (by suffix: .yaml/.yml is YAML, anything else JSON),
    read by :func:`read_bounded` (a regular file of at most :data:`MAX_BYTES`)."""
    raw = read_bounded(path, error=error)  # before Path(): Path("") is the current folder
    path = Path(path)
    try:
        text = decode_text(raw)
    except UnicodeDecodeError:
        raise error(f"{path}: not a UTF-8 text file") from None
    try:
        return parse_text(text, yaml_syntax=path.suffix.lower() in (".yaml", ".yml"))
    except ValueError as exc:
        raise error(f"{path}: {exc}") from None


def load_mapping(path: str | Path, *, what: str = "file", error: type = GamelabError) -> dict:
    """A JSON or YAML file that must hold a mapping."""
    data = load_data(path, error=error)
    if not isinstance(data, dict):
        raise error(f"{path}: a {what} is a mapping of names to values, not {_kind(data)}")
    return data


def check_output(path: str | Path, suffixes: tuple[str, ...], flag: str) -> Path:
    """An output file we can write, checked before any work: a known suffix,
    a folder that exists or can be made, and room to write in it."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise GamelabError(f"{flag} {short(str(path))}: expected a file name ending in {' or '.join(suffixes)}")
    if path.is_dir():
        raise GamelabError(f"{flag} {short(str(path))}: is a folder")
    check_directory(path.parent, flag)
    return path


def check_directory(folder: str | Path, flag: str) -> Path:
    """A folder we can write in (made if missing), or a one-line error naming it."""
    import tempfile

    if str(folder).strip() == "":
        raise GamelabError(f"{flag} '': an empty name names no folder")
    folder = Path(folder)
    resolved = folder.resolve()
    under = next((v for v in VIRTUAL if resolved.is_relative_to(v)), None)
    if under is not None:
        raise GamelabError(f"{flag} {short(str(folder))}: under {under}, the kernel's own files: not a place to write")
    if folder.exists() and not folder.is_dir():
        raise GamelabError(f"{flag} {short(str(folder))}: a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".gamelab-write-test-"):
            pass
    except OSError as exc:
        raise GamelabError(f"{flag} {short(str(folder))}: cannot write there ({exc.strerror or exc})") from None
    return folder


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", type(None): "empty"}.get(type(value), f"a {type(value).__name__}")


def _finite(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {str(k): _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):  # numpy scalars
        return _finite(obj.item())
    return obj


def dumps(obj: Any, **kw) -> str:
    """JSON that is always valid: NaN and infinity become null."""
    return json.dumps(_finite(obj), allow_nan=False, ensure_ascii=False, **kw)


def named_game(name: object) -> Game:
    """The game a file names (a goal's, a profile's or a playtest record's ``game``): the one
    place outside the command line and the notebook panels where a name read from outside is
    looked up; an unknown name is the registry's error, naming the choices."""
    from gamelab.core import registry

    return registry.get(name)


def rules_class(game: str) -> type:
    """The game's rule parameter class (without any agent-model knobs)."""
    from gamelab.core import registry

    return registry.get(game).rules


def load_params(game: str, path: str | Path | None, base=None, *, cls: type | None = None):
    """A parameter file (``{"sum_cap": 8}``) validated against the game's
    parameters: ``cls``, or the game's rules plus its agents' model knobs."""
    from gamelab.core import registry
    from gamelab.core.errors import ParamError
    from gamelab.core.params import from_mapping

    if cls is None:
        cls = registry.get(game).knobs
    if path is None:
        return base if base is not None else cls()
    mapping = load_mapping(path, what="parameter file", error=ParamError)
    _not_another_games(game, cls, mapping, path)
    try:
        return from_mapping(cls, mapping, base=base, source=str(path))
    except ParamError as exc:  # a range or a cross-field rule: name the file too
        if str(exc).startswith(f"{path}: "):
            raise
        raise ParamError(f"{path}: {exc}") from None


def _not_another_games(game: str, cls: type, mapping: dict, path) -> None:
    """A parameter file written for another game (``game: <another>``, or a parameter only another
    game has) is refused naming that game and the parameter, not as a near spelling."""
    from gamelab.core import registry
    from gamelab.core.errors import ParamError
    from gamelab.core.params import specs

    named = mapping.get("game")
    if isinstance(named, str) and named != game and named in registry.available_games():
        raise ParamError(f"{path}: a file for {named} (game: {named}), not for {game}")
    own = {s.name for s in specs(cls)}
    for key in mapping:
        if key in own:
            continue
        for other in registry.available_games():
            if other != game and key in {s.name for s in specs(registry.get(other).knobs)}:
                raise ParamError(f"{path}: {short(key)} is a parameter of {other}, not of {game}: a file for {other}?")
