-- Reserved for issue 41's first-screen work (its brief holds number 026); empty here so that the
-- usage index below can keep the number its brief gave it (027) while migrations stay gapless.
-- At merge: drop this file if the first-screen branch brings its own 026.
SELECT 1;
