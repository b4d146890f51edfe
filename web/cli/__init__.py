"""The command line `rulings`: its commands and arguments (`main`), how answers are printed
(`answers`), and serving the web app (`serving`)."""
