"""Word parsers: doses and frequencies, order times, result windows, the ward's words."""
