/* build_info.h - the parts this build has, one "Name: yes (...)" or "Name: no
 * (why)" line each, for --version. */
#ifndef TRAIN_BUILD_INFO_H
#define TRAIN_BUILD_INFO_H
void train_build_info(void);
#endif
