-- Purpose: how many games of the run have game_id < $max_game: the games a truncated table
--          (card value, card detail) was computed on, counted from the data.
-- Parameters: $max_game - the table's game-id bound.
-- Reads views: games.
-- Returns: games.
SELECT count(*)::BIGINT AS games
FROM games
WHERE game_id < $max_game;
