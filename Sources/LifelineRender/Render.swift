// Rendering (Graphviz in process) lives here.
