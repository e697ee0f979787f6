"""Dice Race bots: the one decision of the game, roll again or bank.

random     rolls again on a fair coin flip from its own stream;
threshold  rolls again while the turn total is below its hold_at (policies.toml).
"""

from sim.core.jit import jit
from sim.core.rng import uniform

RANDOM, THRESHOLD = 0, 1  # data.POLICY_KINDS order


@jit
def rolls_again(S, R, seat, policy, turn_total):
    if R.pol_kind[policy] == RANDOM:
        return uniform(S.rng, 1 + seat) < 0.5
    return turn_total < R.pol_hold[policy]
