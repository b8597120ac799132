"""The record of every person's games (``scoring.models.RecordedGame``): imports of past results,
exports of an event, profiles and leaderboards."""
