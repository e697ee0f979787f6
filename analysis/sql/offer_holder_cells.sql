-- Purpose: per card, game and player count: how many seats were offered the card at setup
--          (offer events with amount = 1: fixed by the deal before any decision) and their
--          wins. The treated group of the randomised-offer (ITT) card value (analysis/causal.py).
--          The card comes back as card_code, its 0-based position in $card_names, decoded by
--          runfolder.query_coded: millions of rows of integers fetch and sort several times
--          faster than strings.
-- Parameters: $card_names - every card offered at setup (offer_names.sql), sorted.
-- Reads views: games, players, events.
-- Returns: card_code, game_id, n_players, n1, s1, in card and game order.
WITH offered AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE CAST(kind AS VARCHAR) = 'offer' AND amount = 1
)
SELECT
    (list_position($card_names, o.card) - 1)::INTEGER  AS card_code,
    o.game_id,
    g.n_players::BIGINT  AS n_players,
    count(*)::DOUBLE     AS n1,
    sum(p.win)::DOUBLE   AS s1
FROM offered AS o
JOIN players AS p USING (game_id, seat)
JOIN games AS g USING (game_id)
GROUP BY o.card, o.game_id, g.n_players
ORDER BY card_code, o.game_id;
