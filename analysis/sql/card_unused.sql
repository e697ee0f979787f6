-- Purpose: how often a card is acquired but never used: of the players who acquired a card
--          in a game, the share with no use event of that card in that game.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $acquire - event kinds that acquire a card; $use - event kinds that use one.
-- Reads views: events.
-- Returns: card, acquired, unused, share.
WITH acquired AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE game_id < $max_game AND list_contains($acquire, CAST(kind AS VARCHAR))
),
used AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE game_id < $max_game AND list_contains($use, CAST(kind AS VARCHAR))
)
SELECT
    a.card,
    count(*)::BIGINT                                       AS acquired,
    count(*) FILTER (WHERE u.card IS NULL)::BIGINT         AS unused,
    count(*) FILTER (WHERE u.card IS NULL) / count(*)      AS share
FROM acquired AS a
LEFT JOIN used AS u USING (game_id, seat, card)
GROUP BY a.card
ORDER BY a.card;
