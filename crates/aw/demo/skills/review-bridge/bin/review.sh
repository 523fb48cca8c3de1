#!/bin/sh
echo "review"
