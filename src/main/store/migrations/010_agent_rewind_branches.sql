-- A branch that an agent's own history holds: the user went back inside the agent (Claude Code's
-- Esc Esc / `/rewind`, an edited prompt, a retry), so one history file forks. The line the agent
-- continued on stays the session; each line it left becomes a branch with this flag, so the
-- window can say "rewound in Claude Code" rather than present it as a fork made in Retrace.
ALTER TABLE sessions ADD COLUMN rewound_in_agent INTEGER NOT NULL DEFAULT 0 CHECK (rewound_in_agent IN (0, 1));
