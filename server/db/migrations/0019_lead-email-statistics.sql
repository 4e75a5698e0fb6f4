-- Statistics on lower(email), which the promotion filter's email condition reads beside the
-- leads' search expression (its trigram index). Without them the planner multiplied the two
-- LIKEs' selectivities as if independent, guessed a few dozen rows for a term that matches a
-- hundred thousand ('gmail'), and sorted every match for a page of 100 (180 ms on 1,000,000
-- leads) instead of walking the newest-first index until the page is full (under 1 ms).
CREATE STATISTICS IF NOT EXISTS leads_email_lower_stats ON (lower(email)) FROM leads;--> statement-breakpoint
ANALYZE leads;
