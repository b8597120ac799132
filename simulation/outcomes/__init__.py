"""The fast outcome model (pure): what a game between two players of given levels ends as, tabulated
from simulated games of the physics, so that odds and win chances are read in milliseconds
instead of played."""
