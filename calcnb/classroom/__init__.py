"""A class at work: the class log, the recorder that feeds it from the lesson, and the teacher's class view."""
