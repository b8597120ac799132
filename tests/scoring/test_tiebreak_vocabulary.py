"""The stage model keeps the tiebreak step names without importing scoring; these tests keep its
copy equal to the engine's registry, so a step cannot be added to one and not the other."""

import pytest

from scoring import engine
from tournaments.forms import NAMED_CHAINS, STEP_LABELS
from tournaments.models import Stage
from tournaments.models.stages import TIEBREAK_STEPS


def test_the_models_know_exactly_the_engines_steps():
    assert len(set(TIEBREAK_STEPS)) == len(TIEBREAK_STEPS)
    assert set(TIEBREAK_STEPS) == set(engine.STEPS)
    assert set(STEP_LABELS) == set(engine.STEPS), "a step has no label on the stage form"


@pytest.mark.parametrize("kind", list(Stage.Kind))
def test_every_default_chain_resolves_in_the_engine(kind):
    chain = Stage.DEFAULT_CHAINS[kind]
    assert engine.resolve_chain(chain=chain) == tuple(chain)


@pytest.mark.parametrize(
    ("kind", "method"),
    [
        (Stage.Kind.PRELIMINARY, "preliminary"),
        (Stage.Kind.ROUND_ROBIN, "round-robin"),
        (Stage.Kind.SWISS, "swiss"),
    ],
)
def test_a_stage_kinds_default_chain_is_the_engine_method_of_that_name(kind, method):
    assert list(engine.METHODS[method]) == Stage(kind=kind).chain


def test_the_named_chains_of_the_stage_form_are_the_engines_methods():
    for name, chain in NAMED_CHAINS.items():
        assert tuple(chain) == engine.METHODS[name]
