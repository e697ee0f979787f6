-- Purpose: the cards offered at setup (offer events with amount = 1), sorted: the codes of
--          offer_holder_cells.sql.
-- Parameters: none.
-- Reads views: events.
-- Returns: card.
SELECT DISTINCT card
FROM events
WHERE CAST(kind AS VARCHAR) = 'offer' AND amount = 1
ORDER BY card;
