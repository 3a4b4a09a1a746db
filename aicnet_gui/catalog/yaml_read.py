"""Read a catalog YAML file as plain data: PyYAML's safe loader, no aliases, libyaml first.

A catalog file is read as plain data: YAML aliases (`*name`) are refused (a dozen lines of
nested aliases expand to gigabytes: "billion laughs").  Imported only when a file is parsed:
a built-in catalog found in the cache (yaml_cache.py) never loads PyYAML.
"""

from __future__ import annotations

from typing import Any

import yaml


class AliasRefused(yaml.composer.ComposerError):
    """A YAML alias in a catalog file."""


class PlainLoader(yaml.SafeLoader):
    """yaml's safe loader without aliases: a catalog is data written out, never references."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise AliasRefused(None, None, "YAML aliases (*name) are not allowed in a catalog "
                               "file; write the value out", event.start_mark)
        return super().compose_node(parent, index)


_FAST_LOADER = getattr(yaml, "CSafeLoader", None)


class _Shared(Exception):
    """A node reached twice: the document uses an alias."""


def _fast_yaml(text: str) -> Any:
    """The document read by libyaml's safe loader (same resolver and constructor as
    `PlainLoader`); raises `_Shared` when a node is reached twice, i.e. an alias, before any
    value is built (so a "billion laughs" file never expands)."""
    loader = _FAST_LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        seen: set[int] = set()
        stack = [node]
        while stack:
            item = stack.pop()
            if id(item) in seen:
                raise _Shared
            seen.add(id(item))
            if isinstance(item, yaml.MappingNode):
                for key, value in item.value:
                    stack.append(key)
                    stack.append(value)
            elif isinstance(item, yaml.SequenceNode):
                stack.extend(item.value)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def read_yaml(text: str) -> Any:
    """The YAML document in `text`, read as `PlainLoader` reads it: safe, no aliases.

    libyaml parses and composes it first (~10x faster: the built-in catalog cost ~0.4 s of every
    `aicnet` command); a document with an alias, or one libyaml refuses, is read again by
    `PlainLoader`, which raises the error whose message the problems quote.
    """
    if _FAST_LOADER is not None:
        try:
            return _fast_yaml(text)
        except Exception:  # noqa: BLE001, S110 - the careful reader below says what is wrong
            pass
    return yaml.load(text, Loader=PlainLoader)  # noqa: S506 - a safe loader, no aliases
