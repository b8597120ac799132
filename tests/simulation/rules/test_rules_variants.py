"""The named rule sets and their switches."""

import pytest

from simulation.rules.variants import (
    RULE_SETS,
    RemovalScope,
    ReturningDamage,
    RuleSet,
    get_rules,
)


def test_three_named_rule_sets_with_nca_the_default():
    assert set(RULE_SETS) == {"nca", "wcc", "family"}
    assert get_rules().name == "nca"


def test_unknown_rule_set_lists_the_known_names():
    with pytest.raises(ValueError, match="'nca', 'wcc', 'family'"):
        get_rules("house")


def test_removal_scope_follows_each_text():
    """NCA 3b: all discs struck; WCC: those of the same colour; family 6: friendly discs touched."""
    assert get_rules("nca").no_hit_removal is RemovalScope.ALL_STRUCK
    assert get_rules("wcc").no_hit_removal is RemovalScope.OWN_STRUCK
    assert get_rules("family").no_hit_removal is RemovalScope.OWN_TOUCHED
    assert get_rules("family").no_hiding_removal is RemovalScope.ALL_STRUCK


def test_returning_damage_and_overhang_switches():
    """NCA 8f damage stays; family 8 replaces; family 2 "no more than halfway over"."""
    assert get_rules("nca").returning_damage is ReturningDamage.STAYS
    assert get_rules("family").returning_damage is ReturningDamage.REPLACE
    assert get_rules("nca").quadrant_overhang == 1.0
    assert get_rules("family").quadrant_overhang == 0.0
    assert get_rules("nca").line_strike_puts_out
    assert get_rules("wcc").line_strike_puts_out
    assert not get_rules("family").line_strike_puts_out


def test_rule_sets_are_frozen_and_checked():
    nca = get_rules("nca")
    with pytest.raises(AttributeError):
        nca.quadrant_overhang = 0.5  # type: ignore[misc]
    with pytest.raises(ValueError, match="between 0 and 1"):
        RuleSet(name="odd", quadrant_overhang=2.0)
    assert get_rules(nca) is nca
