"""One template registry: the CLI's sub-commands and options, the wizard's list and the planner
all come from `GENERATOR_TEMPLATES`, and `build_design` builds what `generate` builds."""

from __future__ import annotations

import argparse

import pytest
from pydantic import ValidationError

from aicnet_gui import generators
from aicnet_gui.cli import build_parser
from aicnet_gui.cli.commands import generate as generate_command
from aicnet_gui.generators import (
    GENERATOR_TEMPLATES,
    TEMPLATES,
    GeneratorError,
    RailOptimizedParams,
    build_design,
    generate,
    plan,
    template_named,
)
from aicnet_gui.generators.leaf_spine import plan_two_tier
from aicnet_gui.generators.template_registry import Flag, GeneratorTemplate
from aicnet_gui.model.document import FabricDocument

QM9700 = "nvidia-qm9700"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    generate = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = generate.choices["generate"]
    templates = next(a for a in command._actions if isinstance(a, argparse._SubParsersAction))
    return dict(templates.choices)


def test_the_cli_has_one_subcommand_per_template_with_its_flags():
    commands = _subcommands(build_parser(["generate"]))
    assert list(commands) == [t.name for t in GENERATOR_TEMPLATES] == list(TEMPLATES)
    for template in GENERATOR_TEMPLATES:
        options = {o for a in commands[template.name]._actions for o in a.option_strings}
        for flag in template.flags:
            assert flag.field in template.params.model_fields, (template.name, flag.field)
            assert flag.option in options, (template.name, flag.option)


@pytest.mark.parametrize(("argv", "values"), [
    (["rail-optimized", "--sus", "2", "--planes", "2", "--tiers", "3", "--rail-planes"],
     {"sus": 2, "planes": 2, "tiers": "3", "rail_planes": True}),
    (["two-tier", "--servers", "8", "--oversubscription", "3:1", "--attach", "tor"],
     {"servers": 8, "oversubscription": 3.0, "attach": "tor"}),
    (["three-tier", "--servers", "64", "--leaves-per-pod", "8", "--core", QM9700],
     {"servers": 64, "leaves_per_pod": 8, "core": QM9700}),
])
def test_flags_parse_to_the_parameters_types(argv, values):
    """Each flag's type and choices come from its parameter's annotation: `--planes 2` is the
    number 2 (Literal[1, 2, 4]), `--tiers 3` the text "3" (Literal["auto", "2", "3"])."""
    args = build_parser(["generate"]).parse_args(["generate", *argv, "-o", "x.fabric"])
    params = generate_command.params_from_args(args)
    assert {k: getattr(params, k) for k in values} == values
    with pytest.raises(SystemExit):
        build_parser(["generate"]).parse_args(["generate", argv[0], "--planes", "3", "-o", "x"])


def test_a_registered_template_is_a_cli_subcommand(monkeypatch):
    """Adding a template is one entry in the list: the CLI builds its sub-command from it."""
    extra = GeneratorTemplate("tiny", "Tiny", "a tiny test fabric", RailOptimizedParams,
                              plan_two_tier, lambda params, server: server,
                              flags=(Flag("sus", "scalable units", "N", required=True),))
    # the command reads the registry when it registers (its module imports no generator)
    monkeypatch.setattr(generators, "GENERATOR_TEMPLATES", (*GENERATOR_TEMPLATES, extra))
    commands = _subcommands(build_parser(["generate"]))
    assert "tiny" in commands
    assert "--sus" in {o for a in commands["tiny"]._actions for o in a.option_strings}


def test_build_design_is_generate_into_a_new_document(catalog):
    params = template_named("rail-optimized").parse({"sus": 1, "leaf": QM9700})
    doc, result = build_design(catalog, params)
    again = FabricDocument(catalog)
    expected = generate(again, params)
    assert result.as_dict() == expected.as_dict()
    assert dict(doc.devices) == dict(again.devices) and dict(doc.links) == dict(again.links)
    assert doc.metadata.name == again.metadata.name and doc.settings == again.settings
    assert len(plan(catalog, params).links) == len(doc.links)


def test_unknown_template_and_bad_values_say_why():
    with pytest.raises(GeneratorError, match="no template 'dragonfly'; the templates are two-tier"):
        template_named("dragonfly")
    with pytest.raises(ValidationError, match="sus"):
        template_named("rail-optimized").parse({"sus": 0})
