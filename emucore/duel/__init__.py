"""What every rule system shares: the Duel protocol, replays and digests."""
