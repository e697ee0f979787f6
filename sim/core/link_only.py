"""Functions only compiled code calls are kept as LLVM IR for their callers: numba neither
optimises their module nor turns it into machine code.

numba compiles every function into a library of its own and, in every caller, links in a
copy of each callee's library: the caller's module holds the code of everything below it. It
then optimises that whole module again and emits machine code for it, at every level of the
call tree, so the code of a function deep in a game was optimised and turned into machine code
once per level above it. Of all that machine code, a run executes only the entry point's (the
Python-callable twin of `run_chunk`, sim.core.jit.InternalDispatcher): a function that only
compiled code calls is never executed from its own library, only from its callers' copies.

So the library of such a function (one `sim.core.jit.jit` compiles, without the Python-call
wrapper) is *link-only*: its functions are optimised one by one as before (numba's function
passes), but the module pass over the linked callees and the machine code are left to the one
library that runs, which links the whole program and optimises and emits it once. On disk it
is cached as LLVM bitcode instead of machine code plus bitcode. The games play the same moves
(the bench signatures) at the same speed (docs/performance.md, 2026-12-06 afternoon).

The one library that runs is also where an entry point marked `sim.core.jit.unvectorized`
(Dragon Brew's) has its whole program optimised without LLVM's loop vectoriser.

This depends on numba's code-library internals (numba.core.codegen.CPUCodeLibrary,
numba.core.cpu.CPUContext.get_executable); `install` checks they are there and otherwise
leaves numba as it is (the compile is then slower, nothing else changes);
sim.core.jit.LINK_ONLY says whether it is; tests/test_jit.py checks that it is, that internal
libraries hold no machine code and that a marked entry point's program is not vectorised.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import cache

from numba.core import config

_compiling = threading.local()  # .link_only, .unvectorized: qualnames of the functions being compiled


def compiling_internal(qualname: str):
    """While an internal function compiles (or loads from the cache), the library numba makes
    under its name is link-only."""
    return _compiling_as("link_only", qualname)


def compiling_unvectorized(qualname: str):
    """While the twin of an entry point marked `sim.core.jit.unvectorized` compiles, the library
    numba makes under its name optimises the linked program without LLVM's loop vectoriser."""
    return _compiling_as("unvectorized", qualname)


@contextmanager
def _compiling_as(kind: str, qualname: str):
    names = _compiling.__dict__.setdefault(kind, [])
    names.append(qualname)
    try:
        yield
    finally:
        names.pop()


def _compiling_now(kind: str, name: str) -> bool:
    """Whether `name` is the innermost function being compiled as `kind` (not one of the helpers
    numba compiles on the way, overloads, which make libraries of their own names)."""
    names = getattr(_compiling, kind, None)
    return bool(names) and names[-1] == name


@contextmanager
def loop_vectorization_off():
    """numba reads its setting when it builds the full pass pipeline of a library's final module
    (the cheap one it runs first never vectorises at NUMBA_OPT below "max"). Set only under
    numba's compile lock (inside a compile), so no other thread sees it."""
    before = config.LOOP_VECTORIZE
    config.LOOP_VECTORIZE = 0
    try:
        yield
    finally:
        config.LOOP_VECTORIZE = before


def is_link_only(library) -> bool:
    return getattr(library, "_brewbalance_link_only", False)


@cache
def install() -> bool:
    """Patch numba's CPU code library (once); False when its internals are not as expected."""
    try:
        from numba import _dynfunc
        from numba.core import codegen, cpu
        library_class = codegen.CPUCodeLibrary
        codegen_class = codegen.JITCPUCodegen
        needed = [(library_class, "_optimize_final_module"), (library_class, "_finalize_final_module"),
                  (library_class, "_finalize_dynamic_globals"), (library_class, "_verify_declare_only_symbols"),
                  (library_class, "serialize_using_object_code"), (library_class, "serialize_using_bitcode"),
                  (codegen_class, "create_library"), (codegen_class, "set_env"), (cpu.CPUContext, "get_executable"),
                  (codegen.JITCodeLibrary, "get_pointer_to_function"), (config, "LOOP_VECTORIZE")]
    except (ImportError, AttributeError):
        return False
    if not all(hasattr(owner, name) for owner, name in needed):
        return False

    create_library = codegen_class.create_library
    optimize_final_module = library_class._optimize_final_module
    finalize_final_module = library_class._finalize_final_module
    serialize_using_object_code = library_class.serialize_using_object_code
    get_executable = cpu.CPUContext.get_executable
    get_pointer_to_function = codegen.JITCodeLibrary.get_pointer_to_function
    set_env = codegen_class.set_env

    def create_library_marked(self, name, **kwargs):
        library = create_library(self, name, **kwargs)
        if _compiling_now("link_only", name):
            library._brewbalance_link_only = True
        if _compiling_now("unvectorized", name):
            library._brewbalance_unvectorized = True
        return library

    def optimize_unless_link_only(self):
        if is_link_only(self):
            return
        if getattr(self, "_brewbalance_unvectorized", False):
            with loop_vectorization_off():
                optimize_final_module(self)
        else:
            optimize_final_module(self)

    def finalize_unless_link_only(self):
        if not is_link_only(self):
            finalize_final_module(self)
            return
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True  # no machine code: callers link in its IR (_get_module_for_linking)

    def serialize(self):
        return self.serialize_using_bitcode() if is_link_only(self) else serialize_using_object_code(self)

    def executable(self, library, fndesc, env):
        if not is_link_only(library):
            return get_executable(self, library, fndesc, env)
        library._ensure_finalized()
        # numba keeps a Python-callable object per compiled signature; this one has no machine
        # code behind it, and InternalDispatcher sends every Python call to the twin instead.
        return _dynfunc.make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                                      "link-only: called from compiled code only", 0, env, (library,))

    def pointer(self, name):
        if is_link_only(self):
            self._ensure_finalized()
            return 0  # numba's answer for a symbol the library does not define
        return get_pointer_to_function(self, name)

    def set_env_if_loaded(self, env_name, env):
        # numba points a function's environment global at its Environment when it loads the
        # function from the cache; a link-only library's globals are not in the JIT engine (its
        # callers' copies are, and compiled code without Python objects never reads them)
        if self._engine.is_symbol_defined(env_name):
            set_env(self, env_name, env)

    codegen_class.create_library = create_library_marked
    codegen_class.set_env = set_env_if_loaded
    library_class._optimize_final_module = optimize_unless_link_only
    library_class._finalize_final_module = finalize_unless_link_only
    library_class.serialize_using_object_code = serialize
    cpu.CPUContext.get_executable = executable
    codegen.JITCodeLibrary.get_pointer_to_function = pointer
    return True
