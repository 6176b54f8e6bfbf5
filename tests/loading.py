"""The project's scripts (bench/, scripts/, tests' own tools) loaded as modules for a test, by
path: they are not in a package. Registered in `sys.modules` under `name` before they run, as
dataclasses and pickling look a module up there."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str, name: str) -> ModuleType:
    """The file `relative` (to the project's root) as the module `name`, loaded once."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
