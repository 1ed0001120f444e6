"""The verbs that span features: they open the composed store or join features that sit
on different floors (a study with its gold runs, rater quality with gold as its reference).
A verb that needs only its own feature stays in that feature's folder."""
