"""Planning an event before it happens: finish-time distributions and formats side by side."""
