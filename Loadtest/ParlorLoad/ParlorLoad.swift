// ParlorLoad: scenarios, figures and reports of the `parlor-load` load generator.
