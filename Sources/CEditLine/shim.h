#ifndef DOCSTORE_CEDITLINE_SHIM_H
#define DOCSTORE_CEDITLINE_SHIM_H

// libedit's native API (histedit.h). el_set, el_get and history are C variadic
// functions, which Swift cannot call: these fixed-signature wrappers can be.
#include <stdio.h>
#include <histedit.h>

typedef char *(*docstore_prompt_fn)(EditLine *);
typedef unsigned char (*docstore_command_fn)(EditLine *, int);

static inline int docstore_el_set_prompt(EditLine *el, docstore_prompt_fn fn) {
    return el_set(el, EL_PROMPT, fn);
}
static inline int docstore_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}
static inline int docstore_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}
static inline int docstore_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}
static inline int docstore_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}
static inline void *docstore_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
static inline int docstore_el_add_function(EditLine *el, const char *name, const char *help, docstore_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int docstore_el_bind(EditLine *el, const char *key, const char *command) {
    return el_set(el, EL_BIND, key, command, NULL);
}
static inline int docstore_el_set_tty(EditLine *el, const char *mode, const char *setting) {
    return el_set(el, EL_SETTY, mode, setting, NULL);
}
static inline int docstore_history_set_size(History *h, HistEvent *ev, int size) {
    return history(h, ev, H_SETSIZE, size);
}
static inline int docstore_history_set_unique(History *h, HistEvent *ev, int unique) {
    return history(h, ev, H_SETUNIQUE, unique);
}
static inline int docstore_history_enter(History *h, HistEvent *ev, const char *line) {
    return history(h, ev, H_ENTER, line);
}
static inline int docstore_history_load(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_LOAD, path);
}
static inline int docstore_history_save(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_SAVE, path);
}

#endif
