"""Standings of a stage: the reads that rank its entries, the bar chart and the page."""
