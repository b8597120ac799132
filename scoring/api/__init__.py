"""REST API for scorecards, their workflow and the standings."""
