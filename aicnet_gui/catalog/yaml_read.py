"""Read a catalog YAML file as plain data: PyYAML's safe loader, no aliases, nesting and
numbers bounded, libyaml first.

A catalog file is read as plain data: YAML aliases (`*name`) are refused (a dozen lines of
nested aliases expand to gigabytes: "billion laughs"), and so are nesting deeper than
`MAX_YAML_DEPTH` and numbers longer than `MAX_NUMBER_CHARS`.  Imported only when a file is
parsed: a built-in catalog found in the cache (yaml_cache.py) never loads PyYAML.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..model.limits import MAX_NUMBER_CHARS, MAX_YAML_DEPTH


class YamlRefused(yaml.composer.ComposerError):
    """Something aicnet does not read in a catalog or device-type YAML file (`problem` says
    what, `problem_mark` where)."""


class AliasRefused(YamlRefused):
    """A YAML alias in a catalog file."""


class YamlLimit(YamlRefused):
    """A YAML file nested deeper (`MAX_YAML_DEPTH`) or with a longer number
    (`MAX_NUMBER_CHARS`) than aicnet reads: Python's own limits would end such a read in a
    RecursionError or a ValueError instead of a message."""


_INT_TAG = "tag:yaml.org,2002:int"


DEPTH_PROBLEM = f"nested deeper than {MAX_YAML_DEPTH} levels; aicnet reads no deeper"


def _limit_problem(node: yaml.Node, depth: int) -> str | None:
    if depth > MAX_YAML_DEPTH:
        return DEPTH_PROBLEM
    if isinstance(node, yaml.ScalarNode) and node.tag == _INT_TAG \
            and len(node.value) > MAX_NUMBER_CHARS:
        return (f"a number of {len(node.value):,} characters; aicnet reads numbers of at most "
                f"{MAX_NUMBER_CHARS}")
    return None


class PlainLoader(yaml.SafeLoader):
    """yaml's safe loader without aliases (a catalog is data written out, never references),
    nesting and numbers bounded."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise AliasRefused(None, None, "YAML aliases (*name) are not allowed in aicnet's "
                               "YAML files (catalogs, device types, requirements); write the "
                               "value out", event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise YamlLimit(None, None, DEPTH_PROBLEM, self.peek_event().start_mark)
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        problem = _limit_problem(node, self._depth + 1)
        if problem is not None:
            raise YamlLimit(None, None, problem, node.start_mark)
        return node


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
        stack = [(node, 1)]
        while stack:
            item, depth = stack.pop()
            if id(item) in seen:
                raise _Shared
            seen.add(id(item))
            problem = _limit_problem(item, depth)
            if problem is not None:
                raise YamlLimit(None, None, problem, item.start_mark)
            if isinstance(item, yaml.MappingNode):
                for key, value in item.value:
                    stack.append((key, depth + 1))
                    stack.append((value, depth + 1))
            elif isinstance(item, yaml.SequenceNode):
                stack.extend((child, depth + 1) for child in item.value)
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
        except YamlLimit:
            raise  # said with its place; the careful reader would only hit Python's limits
        except Exception:  # noqa: BLE001, S110 - the careful reader below says what is wrong
            pass
    return yaml.load(text, Loader=PlainLoader)  # noqa: S506 - a safe loader, no aliases
