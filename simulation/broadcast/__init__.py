"""The broadcast kit: featured matches scored round by round, the overlay, its feed and stream."""
