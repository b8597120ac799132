"""End-to-end tests: a whole tournament driven through a real chromium (Playwright)."""
