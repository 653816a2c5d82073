-- Operator roles: 'admin' (everything, manages operators) or 'agent'
-- (customer service, review queues, activation). Players have ''. Every
-- operator made before roles existed could do everything, so stays admin.
ALTER TABLE users ADD COLUMN operator_role TEXT NOT NULL DEFAULT '';
UPDATE users SET operator_role = 'admin' WHERE is_operator = 1;

-- When an operator froze the account's sign-in (unix ms); 0 = not frozen.
ALTER TABLE users ADD COLUMN frozen_at BIGINT NOT NULL DEFAULT 0;
