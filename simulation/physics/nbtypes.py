"""The compile options and the numba type aliases of the explicit signatures of the compiled
functions.

Every compiled function declares its signature: it is then compiled once, for exactly these types
(never again for literal constants passed at a call site, which would multiply the compile time),
and loaded from the on-disk cache on later imports. Functions only ever called from compiled code
that allocate nothing are :func:`njit_inner`'s: no CPython wrapper (another share of the compile
time) and no reference counting.
"""

from __future__ import annotations

from typing import Any

import numba
from numba import types


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` with the options every compiled function of the project shares: cached on
    disk (see :mod:`compiled_cache`), and numpy's error model. Under numba's default (Python's)
    model every division checks its divisor and would raise ``ZeroDivisionError``; the kernels
    never divide by zero on purpose (they guard each division that could), so the checks only
    cost: about a tenth of a search's time, with the same results to the bit (seeded games
    replay identically under either model). Used as ``@njit`` or ``@njit(signature, ...)``."""
    return numba.njit(*args, cache=True, error_model="numpy", **options)


def njit_inner(*args: Any, **options: Any) -> Any:
    """:func:`njit` for a function called only from compiled code that allocates nothing (no
    array made or returned): without the CPython wrapper (a share of the compile time) and
    without numba's reference counting (``_nrt=False``). Counted, every array argument is
    increfed on entry and decrefed at each exit, two calls into numba's runtime per array per
    call; the physics' event predictions take up to nine arrays and run several times an event,
    and a profile of preview games put a fifth of all samples in numba's ``NRT_incref`` and
    ``NRT_decref``; without the counting a game took 17 to 20 % less time. The arrays such a
    function reads belong to its caller, which holds them for the whole call; one that would
    make an array is refused at compile time. Used as ``@njit_inner`` or
    ``@njit_inner(signature)``."""
    return njit(*args, no_cpython_wrapper=True, _nrt=False, **options)


def entry_point(dispatcher: Any) -> Any:
    """The compiled code of a function of one explicit signature, to call from Python without
    numba's dispatch: a call through the dispatcher types every argument to pick the code, and
    an argument numba cannot type in C (a numpy ``Generator``) is typed in Python, about 2 µs,
    with as much again of the dispatcher's own bookkeeping; a decision of the players' search
    paid it every time. The code unboxes each argument as its signature says and refuses one of
    another type (``TypeError``), but it does not check an array's layout: a strided view passed
    for a C-contiguous array would be read as if it were contiguous. For callers that make every
    argument themselves, in the signature's types and layouts."""
    (compiled,) = dispatcher.overloads.values()
    return compiled.entry_point


f8 = types.float64
i8 = types.int64
b1 = types.boolean
F1 = types.Array(types.float64, 1, "C")
F2 = types.Array(types.float64, 2, "C")
F3 = types.Array(types.float64, 3, "C")
I1 = types.Array(types.int64, 1, "C")
I8_1 = types.Array(types.int8, 1, "C")
I8_2 = types.Array(types.int8, 2, "C")
I32_1 = types.Array(types.int32, 1, "C")
I32_2 = types.Array(types.int32, 2, "C")
B1_1 = types.Array(types.boolean, 1, "C")
F8x2 = types.UniTuple(types.float64, 2)
F8x4 = types.UniTuple(types.float64, 4)
F8x7 = types.UniTuple(types.float64, 7)
F8_I8 = types.Tuple((types.float64, types.int64))
SHOT_OUT = types.Tuple((types.int64, types.boolean, types.float64, types.int64))
