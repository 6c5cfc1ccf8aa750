"""Lesson content: exercises and how answers are read, the worked examples, the order arithmetic, worksheets."""
