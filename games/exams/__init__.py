"""Exams: a student's minimax graded against perfect play, position by position."""
