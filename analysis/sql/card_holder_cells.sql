-- Purpose: per card, game, player count and faction: how many players acquired (or played)
--          the card and their wins. With card_game_cells.sql, the per-game terms of card
--          value's game-clustered variance (analysis/clustered.py).
--          Card and faction come back as card_code and faction_code, their 0-based positions
--          in $card_names and $faction_names, decoded by runfolder.query_coded: millions of
--          rows of short integers fetch and sort several times faster than strings.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card;
--             $card_names - every card acquired (card_names.sql), sorted;
--             $faction_names - every faction of the run (faction_names.sql), sorted.
-- Reads views: games, players, events.
-- Returns: card_code, game_id, n_players, faction_code, n1, s1, in card, game, faction order.
WITH holders AS (
    SELECT DISTINCT game_id, seat, card
    FROM events
    WHERE game_id < $max_game AND list_contains($kinds, CAST(kind AS VARCHAR))
)
SELECT
    (list_position($card_names, h.card) - 1)::INTEGER        AS card_code,
    h.game_id,
    g.n_players::BIGINT                                      AS n_players,
    (list_position($faction_names, p.faction) - 1)::INTEGER  AS faction_code,
    count(*)::DOUBLE                                         AS n1,
    sum(p.win)::DOUBLE                                       AS s1
FROM holders AS h
JOIN players AS p USING (game_id, seat)
JOIN games AS g USING (game_id)
GROUP BY h.card, h.game_id, g.n_players, p.faction
ORDER BY card_code, h.game_id, faction_code;
