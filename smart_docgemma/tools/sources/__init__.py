"""Public knowledge sources: openFDA drug labels, literature, trials, images, offline pack."""
