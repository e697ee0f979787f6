-- Purpose: how often a card is acquired but never used: of the players who acquired a card
--          in a game, the share with no use event of that card in that game, with the
--          per-game moments (sum over games of u^2, u a, a^2 with u unused and a acquired in
--          the game) for a game-clustered interval.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $acquire - event kinds that acquire a card; $use - event kinds that use one.
-- Reads views: events.
-- Returns: card, acquired, unused, share, games, sum_w2, sum_wn, sum_n2.
WITH acquired AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE game_id < $max_game AND list_contains($acquire, CAST(kind AS VARCHAR))
),
used AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE game_id < $max_game AND list_contains($use, CAST(kind AS VARCHAR))
),
per_game AS (
    SELECT
        a.card,
        a.game_id,
        count(*)                                 AS n,
        count(*) FILTER (WHERE u.card IS NULL)   AS w
    FROM acquired AS a
    LEFT JOIN used AS u USING (game_id, seat, card)
    GROUP BY a.card, a.game_id
)
SELECT
    card,
    sum(n)::BIGINT            AS acquired,
    sum(w)::BIGINT            AS unused,
    sum(w) / sum(n)           AS share,
    count(*)::BIGINT          AS games,
    sum(w * w)::DOUBLE        AS sum_w2,
    sum(w * n)::DOUBLE        AS sum_wn,
    sum(n * n)::DOUBLE        AS sum_n2
FROM per_game
GROUP BY card
ORDER BY card;
