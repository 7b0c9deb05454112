"""The pieces a rendered report is made of: a :class:`Section` of
:class:`Block` items, filled by :mod:`.render` and :mod:`.audit` and turned
into HTML by the template."""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass
class Block:
    kind: str  # text, list, heading, pre, table, figure, html, details, row (its body: blocks side by side),
    # link (its body: text, the address, the link's words)
    body: Any
    caption: str = ""  # a figure's caption, a details block's summary line
    css: str = ""
    own: str = ""  # its figures are of their own sample, not the report's run: why (gamelab.report.onenumber)


@dataclasses.dataclass
class Section:
    id: str
    title: str
    blocks: list
    own: str = ""  # its figures are of their own sample, not the report's run: why (gamelab.report.onenumber)
