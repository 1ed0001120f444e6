"""Sheets in the window: the sign flow, the sheet PDF renderer and the Verify sheet dialog."""
