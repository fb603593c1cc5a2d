# Generates the GL 4.5 core + EGL 1.5 loaders with glad2 (PyPI) into the build folder at
# configure time, and wraps them in the target fftscope_glad. Nothing generated is committed.
set(FFTSCOPE_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)

find_program(FFTSCOPE_GLAD_PYTHON NAMES python3
  HINTS ${CMAKE_SOURCE_DIR}/.venv/bin NO_DEFAULT_PATH)
if(NOT FFTSCOPE_GLAD_PYTHON)
  find_program(FFTSCOPE_GLAD_PYTHON NAMES python3 REQUIRED)
endif()

set(glad_args --quiet --reproducible --api "gl:core=4.5,egl=1.5" --out-path ${FFTSCOPE_GLAD_DIR} c --loader)
set(glad_stamp ${FFTSCOPE_GLAD_DIR}/args.txt)
if(NOT EXISTS ${FFTSCOPE_GLAD_DIR}/src/gl.c OR NOT EXISTS ${glad_stamp})
  set(glad_old_args "")
else()
  file(READ ${glad_stamp} glad_old_args)
endif()
if(NOT glad_old_args STREQUAL "${glad_args}")
  message(STATUS "fftscope: generating glad loaders with ${FFTSCOPE_GLAD_PYTHON}")
  execute_process(COMMAND ${FFTSCOPE_GLAD_PYTHON} -m glad ${glad_args}
    RESULT_VARIABLE glad_result ERROR_VARIABLE glad_error)
  if(NOT glad_result EQUAL 0)
    message(FATAL_ERROR "glad2 failed (${glad_result}): ${glad_error}\n"
      "Run scripts/setup.sh, which installs glad2 from PyPI into .venv/.")
  endif()
  file(WRITE ${glad_stamp} "${glad_args}")
endif()

add_library(fftscope_glad STATIC ${FFTSCOPE_GLAD_DIR}/src/gl.c ${FFTSCOPE_GLAD_DIR}/src/egl.c)
target_include_directories(fftscope_glad SYSTEM PUBLIC ${FFTSCOPE_GLAD_DIR}/include)
target_link_libraries(fftscope_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(fftscope_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
