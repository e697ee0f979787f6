"""Number formatting shared by the HTML filters and the PDF tables.

Keeping one set of formatters means the two outputs show identical figures. Missing
values (None, NaN) print as 'n/a'. Output is plain Latin-1 so the PDF's standard
fonts can render every character.
"""

from __future__ import annotations

import math
from collections.abc import Callable


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x, digits: int = 1) -> str:
    """Proportion as a percentage: 0.4123 -> '41.2%'."""
    return "n/a" if _missing(x) else f"{100 * float(x):.{digits}f}%"


def pp(x, digits: int = 1) -> str:
    """Signed difference of proportions in percentage points: 0.031 -> '+3.1 pp'."""
    return "n/a" if _missing(x) else f"{100 * float(x):+.{digits}f} pp"


def num(x, digits: int = 2) -> str:
    """A measured quantity: thousands separators, fixed decimals, ints stay ints."""
    if _missing(x):
        return "n/a"
    if isinstance(x, int) or (isinstance(x, float) and math.isinf(x)):
        return f"{x:,}" if isinstance(x, int) else "inf"
    return f"{x:,.{digits}f}"


def integer(x) -> str:
    """A count: 12345 -> '12,345'."""
    return "n/a" if _missing(x) else f"{int(round(float(x))):,}"


def signed(x, digits: int = 2) -> str:
    """A signed difference of means: 0.5 -> '+0.50'."""
    return "n/a" if _missing(x) else f"{float(x):+,.{digits}f}"


def pvalue(x) -> str:
    """A p-value: 0.0342 -> '0.034'; below 0.001 -> '<0.001'."""
    if _missing(x):
        return "n/a"
    return "<0.001" if float(x) < 0.001 else f"{float(x):.3f}"


def ratio(x) -> str:
    """A 'times' factor: 2.875 -> '2.9x'; inf -> 'inf'; missing -> ''."""
    if _missing(x):
        return ""
    return "inf" if math.isinf(float(x)) else f"{float(x):,.1f}x"


def text(x) -> str:
    return "" if x is None else str(x)


FORMATTERS: dict[str, Callable] = {
    "pct": pct, "pp": pp, "num": num, "int": integer, "signed": signed, "text": text,
    "p": pvalue, "ratio": ratio,
}


def fmt(value, kind: str) -> str:
    """Format value with the named formatter (see FORMATTERS)."""
    return FORMATTERS[kind](value)
