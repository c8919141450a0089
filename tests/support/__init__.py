"""Helpers shared by test modules: one package, so test modules never import each other."""
