-- Purpose: per card, game, player count and faction: how many players acquired (or played)
--          the card and their wins. With card_game_cells.sql, the per-game terms of card
--          value's game-clustered variance (analysis/clustered.py).
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card.
-- Reads views: games, players, events.
-- Returns: card, game_id, n_players, faction, n1, s1.
WITH holders AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE game_id < $max_game AND list_contains($kinds, CAST(kind AS VARCHAR))
)
SELECT
    h.card,
    h.game_id,
    g.n_players::BIGINT  AS n_players,
    p.faction,
    count(*)::DOUBLE     AS n1,
    sum(p.win)::DOUBLE   AS s1
FROM holders AS h
JOIN players AS p USING (game_id, seat)
JOIN games AS g USING (game_id)
GROUP BY h.card, h.game_id, g.n_players, p.faction
ORDER BY h.card, h.game_id;
