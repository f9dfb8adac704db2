"""The search, one Python module per browser module of the same name (site/assets/*.js): a query's words read (query), a
question understood (question), the search data's specification (searchspec), the scoring (ranking), names resolved
(resolve), the searcher (search), its excerpts and its evaluation."""
