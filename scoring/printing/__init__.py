"""Printed paper: scorecards, standings and bracket sheets rendered with WeasyPrint."""
