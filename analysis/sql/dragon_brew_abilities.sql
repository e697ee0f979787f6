-- Purpose (Dragon Brew): how often each race uses its race ability (events kind 'ability'),
--          by player count: the share of its games with at least one use and the mean uses per
--          game. A race that never uses its power measures nothing about that power.
-- Parameters: none.
-- Reads views: games (n_players), players (faction), events (kind 'ability').
-- Returns: n_players, faction, games, games_used, used_share, uses_per_game.
WITH uses AS (
    SELECT game_id, seat, count(*) AS n
    FROM events
    WHERE kind = 'ability'
    GROUP BY game_id, seat
)
SELECT
    g.n_players::BIGINT                                AS n_players,
    p.faction::VARCHAR                                 AS faction,
    count(*)::BIGINT                                   AS games,
    count(u.n)::BIGINT                                 AS games_used,
    count(u.n) / count(*)                              AS used_share,
    coalesce(sum(u.n), 0) / count(*)                   AS uses_per_game
FROM players AS p
JOIN games AS g USING (game_id)
LEFT JOIN uses AS u ON u.game_id = p.game_id AND u.seat = p.seat
GROUP BY g.n_players, p.faction
ORDER BY g.n_players, p.faction;
