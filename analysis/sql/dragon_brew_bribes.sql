-- Purpose (Dragon Brew, Corrupt Judge variant): bribes placed per game and the gold they carry,
--          by player count (a bribe that is outbid counts once per placement).
-- Parameters: none.
-- Reads views: games (n_players), events (kind 'bribe').
-- Returns: n_players, games, bribes, bribes_per_game, mean_bribe.
WITH b AS (
    SELECT game_id, count(*) AS n, sum(amount) AS gold
    FROM events
    WHERE kind = 'bribe'
    GROUP BY game_id
)
SELECT
    g.n_players::BIGINT                         AS n_players,
    count(*)::BIGINT                            AS games,
    coalesce(sum(b.n), 0)::BIGINT               AS bribes,
    coalesce(sum(b.n), 0) / count(*)            AS bribes_per_game,
    coalesce(sum(b.gold), 0) / greatest(coalesce(sum(b.n), 0), 1)  AS mean_bribe
FROM games AS g
LEFT JOIN b USING (game_id)
GROUP BY g.n_players
ORDER BY g.n_players;
