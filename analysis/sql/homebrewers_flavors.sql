-- Purpose (Homebrewers): how flavor cards are used: drawn, played under a recipe (top) or
--          discarded for the bottom benefit, per card, with the share of draws that were played.
-- Parameters: none.
-- Reads views: events (card, kind).
-- Returns: card, drawn, played_top, played_bottom, top_share.
SELECT
    e.card::VARCHAR                                             AS card,
    count(*) FILTER (WHERE e.kind::VARCHAR = 'draw')::BIGINT        AS drawn,
    count(*) FILTER (WHERE e.kind::VARCHAR = 'play_top')::BIGINT    AS played_top,
    count(*) FILTER (WHERE e.kind::VARCHAR = 'play_bottom')::BIGINT AS played_bottom,
    count(*) FILTER (WHERE e.kind::VARCHAR = 'play_top')::DOUBLE
        / greatest(count(*) FILTER (WHERE e.kind::VARCHAR IN ('play_top', 'play_bottom')), 1) AS top_share
FROM events AS e
WHERE e.kind::VARCHAR IN ('draw', 'play_top', 'play_bottom')
GROUP BY e.card::VARCHAR
ORDER BY drawn DESC, card;
