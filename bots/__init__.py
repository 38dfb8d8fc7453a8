"""In-process players: the policies `risiko simulate` plays with."""
