"""Live odds of the cut: each entry's chance of making it, read from the outcome model."""
