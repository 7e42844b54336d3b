"""The game author's kit: the conformance checks every game must pass (:mod:`.checks`), golden
playthroughs (:mod:`.playthrough`) and the scaffold of a new game package (:mod:`.scaffold`)."""
