-- The tables of a class log as calcnb at commit ac5185f made them on PostgreSQL: its METADATA.create_all,
-- compiled for the postgresql dialect by that commit's calcnb/classroom/log.py. tests/test_class_old_logs.py
-- makes them, copies the rows of class_log_v2.db (written by that code) into them, and reads the log back.

CREATE TABLE calcnb_attempts (
	id SERIAL NOT NULL,
	recorded_at FLOAT NOT NULL,
	nickname VARCHAR(40) NOT NULL,
	exercise_id VARCHAR(80) NOT NULL,
	variant VARCHAR(80) NOT NULL,
	answer VARCHAR(200) NOT NULL,
	correct BOOLEAN NOT NULL,
	outcome VARCHAR(16) NOT NULL,
	misconception VARCHAR(80),
	language VARCHAR(80) NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE calcnb_class_key (
	id INTEGER NOT NULL,
	secret VARCHAR(64) NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE calcnb_games (
	id SERIAL NOT NULL,
	recorded_at FLOAT NOT NULL,
	nickname VARCHAR(40) NOT NULL,
	seed BIGINT NOT NULL,
	player VARCHAR(80) NOT NULL,
	won BOOLEAN NOT NULL,
	score INTEGER NOT NULL,
	PRIMARY KEY (id),
	CONSTRAINT calcnb_games_once UNIQUE (nickname, seed, player)
);

CREATE TABLE calcnb_schema (
	id INTEGER NOT NULL,
	version INTEGER NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE calcnb_students (
	id SERIAL NOT NULL,
	nickname VARCHAR(40) NOT NULL,
	joined_at FLOAT NOT NULL,
	language VARCHAR(80) NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE calcnb_writers (
	writer VARCHAR(32) NOT NULL,
	nickname VARCHAR(40) NOT NULL,
	waiting INTEGER NOT NULL,
	written INTEGER NOT NULL,
	last_write FLOAT,
	last_failure FLOAT,
	failure VARCHAR(200),
	heartbeat FLOAT NOT NULL,
	PRIMARY KEY (writer)
);

CREATE TABLE calcnb_writes (
	writer VARCHAR(32) NOT NULL,
	sequence INTEGER NOT NULL,
	attempt_id INTEGER NOT NULL,
	PRIMARY KEY (writer, sequence)
);

CREATE INDEX calcnb_attempts_by_student ON calcnb_attempts (nickname, recorded_at);
